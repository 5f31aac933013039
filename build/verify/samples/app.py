import os, sys

def greet(name):
    unused = 1
    if name == None:
        return "hi"
    return "hello " + name

print(greet("world"))
