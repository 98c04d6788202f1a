# expect: block SG808@3
import pathlib
pathlib.Path.home().joinpath(".profile").write_text("python3 -c 'import x'")
