package puffin

// MaxDeletionVectorBytes caps the size of a deletion-vector-v1 blob that
// [ReadDeletionVector] reads (and so allocates): 512 MiB. A bitmap of every
// position of a data file of 2^31 rows takes about 256 MiB as roaring
// bitmap containers; a larger blob is not a DV a writer produces.
const MaxDeletionVectorBytes = 512 << 20

// maxBitmaps caps the number of 32-bit bitmaps a vector may declare before
// any is decoded: each takes at least 8 bytes, so the count is also checked
// against the bytes left.
const maxBitmaps = 1 << 31
