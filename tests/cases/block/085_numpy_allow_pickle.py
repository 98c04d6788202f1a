# expect: block SG306@3
import numpy as np
arr = np.load("a.npy", allow_pickle=True)
