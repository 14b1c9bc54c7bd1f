print("yard")
