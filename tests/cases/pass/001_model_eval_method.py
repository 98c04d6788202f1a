# expect: pass
import torch
model = torch.nn.Linear(2, 2)
model.eval()
with torch.no_grad():
    y = model(torch.zeros(1, 2))
