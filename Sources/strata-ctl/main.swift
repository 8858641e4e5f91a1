print("strata-ctl")
