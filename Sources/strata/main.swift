import StrataServer
print("strata: not yet")
