# expect: pass
from transformers import AutoModelForCausalLM

model = AutoModelForCausalLM.from_pretrained("org/model", trust_remote_code=False)
