# expect: pass
import torch
weights = torch.load("checkpoint.pt", map_location="cpu", weights_only=True)
