assert f(
