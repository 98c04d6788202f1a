# expect: pass
def main(app):
    return app.exec()
