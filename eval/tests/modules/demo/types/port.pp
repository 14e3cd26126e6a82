type Demo::Port = Integer[1, 65535]
