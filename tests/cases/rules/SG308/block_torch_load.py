# expect: block SG308@3
import torch
model = torch.load("model.pt")
