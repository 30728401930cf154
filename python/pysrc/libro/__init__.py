from ._libro import *
