// Package fuzzopen holds the fuzz target of reader.Open in a package of its
// own, so that its instrumented test binary links only the reader and the
// decoders (the reader package's own tests link object-store fakes, which
// make a fuzzing build slow).
package fuzzopen
