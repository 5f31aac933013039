def main(name: str):
    print("Hello " + name)
