package circl
