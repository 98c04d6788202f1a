# expect: block SG002@38
# thirty-three os functions, then os.system: a dropped candidate must not let the call through
import os
f = os.func0
f = os.func1
f = os.func2
f = os.func3
f = os.func4
f = os.func5
f = os.func6
f = os.func7
f = os.func8
f = os.func9
f = os.func10
f = os.func11
f = os.func12
f = os.func13
f = os.func14
f = os.func15
f = os.func16
f = os.func17
f = os.func18
f = os.func19
f = os.func20
f = os.func21
f = os.func22
f = os.func23
f = os.func24
f = os.func25
f = os.func26
f = os.func27
f = os.func28
f = os.func29
f = os.func30
f = os.func31
f = os.func32
f = os.system
f("id")
