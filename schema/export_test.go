package schema

// DecodeTableMetadataLimit is DecodeTableMetadata with another cap, for
// measuring the decoder on documents larger than MaxTableMetadataBytes.
var DecodeTableMetadataLimit = decodeTableMetadata
