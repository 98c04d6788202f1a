# expect: block SG308@3
import torch
state = torch.load("model.pt", weights_only=False)
