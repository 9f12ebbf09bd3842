package gnark
