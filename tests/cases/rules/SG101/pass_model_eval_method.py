# expect: pass
def evaluate(model):
    model.eval()
    return model
