from . import write

print(write())
