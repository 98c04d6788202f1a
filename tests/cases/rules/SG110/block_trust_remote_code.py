# expect: block SG110@4
from transformers import AutoModelForCausalLM

model = AutoModelForCausalLM.from_pretrained("someone/model", trust_remote_code=True)
