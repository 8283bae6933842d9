package reader

// SetDecoderSkip turns applying position deletes inside the Parquet
// decoder on or off, for tests comparing it with filtering decoded batches.
func SetDecoderSkip(on bool) { decoderSkipOff = !on }

// DecoderSkipFiles returns how many data files were read with their
// position deletes applied inside the decoder.
func DecoderSkipFiles() int64 { return decoderSkipFiles.Load() }

// SetPageIndex turns skipping pages by the Parquet page index on or off.
func SetPageIndex(on bool) { pageIndexOff = !on }
