import sys
import os, json
from collections import OrderedDict
import re


def main():
    print(json.dumps({"cwd": os.getcwd()}))


main()
