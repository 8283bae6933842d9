package iceberg

import "github.com/lakecat/lakecat/storage"

// DecodeMetadataLimit is DecodeMetadata with another cap, for
// measuring the decoder on documents larger than MaxMetadataBytes.
var DecodeMetadataLimit = decodeMetadata

// BigTable is the generated 100k-file table of BenchmarkPlanTasks100k, at
// "mem/big".
func BigTable() storage.FS { return bigTable() }
