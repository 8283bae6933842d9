package hudi

// UnzipTable is unzipTable for the external tests.
var UnzipTable = unzipTable
