StrataCtl.main()
