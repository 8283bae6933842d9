package open

// UnitFormatOptions is unitFormatOptions, for tests.
var UnitFormatOptions = unitFormatOptions
