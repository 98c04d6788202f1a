# expect: block SG306@4
import numpy as np

arr = np.load("data.npy", allow_pickle=True)
