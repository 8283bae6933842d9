package iceberg

// DecodeMetadataLimit is DecodeMetadata with another cap, for
// measuring the decoder on documents larger than MaxMetadataBytes.
var DecodeMetadataLimit = decodeMetadata
