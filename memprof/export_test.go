package memprof

// SizeClass is sizeClass, for the tests outside the package.
var SizeClass = sizeClass
