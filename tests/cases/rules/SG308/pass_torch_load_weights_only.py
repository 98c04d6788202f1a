# expect: pass
import torch
state = torch.load("model.pt", weights_only=True)
