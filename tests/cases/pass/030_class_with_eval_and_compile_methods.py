# expect: pass
class Expr:
    def compile(self):
        return self
    def eval(self, env):
        return 0
    def exec(self):
        return self.eval({})
e = Expr().compile()
print(e.eval({}), e.exec())
