package hostile

import (
	"encoding/binary"
	"hash/crc32"
)

// AvroSchema is the schema of the Avro containers below: one array of longs
// (field id 1, element id 2).
const AvroSchema = `{"type":"record","name":"r","fields":[{"name":"xs","field-id":1,"type":{"type":"array","items":"long","element-id":2}}]}`

var avroSync = []byte("0123456789abcdef")

func zigzag(b []byte, v int64) []byte { return binary.AppendUvarint(b, uint64(v<<1^v>>63)) }

func avroString(b []byte, s string) []byte { return append(zigzag(b, int64(len(s))), s...) }

// AvroContainer returns an Avro object container file with codec ("null",
// "deflate", "snappy", "zstandard") and one block stating count records and
// size bytes, followed by data and the sync marker. size < 0 means
// len(data).
func AvroContainer(codec string, count, size int64, data []byte) []byte {
	b := []byte("Obj\x01")
	b = zigzag(b, 2)
	b = avroString(b, "avro.schema")
	b = avroString(b, AvroSchema)
	b = avroString(b, "avro.codec")
	b = avroString(b, codec)
	b = zigzag(b, 0)
	b = append(b, avroSync...)
	if size < 0 {
		size = int64(len(data))
	}
	b = zigzag(b, count)
	b = zigzag(b, size)
	b = append(b, data...)
	return append(b, avroSync...)
}

// AvroHugeBlockSize is a container whose one block claims 2^40 bytes.
func AvroHugeBlockSize() []byte { return AvroContainer("null", 1, 1<<40, []byte{0}) }

// AvroHugeBlockCount is a container whose one block claims 2^40 records in
// one byte.
func AvroHugeBlockCount() []byte { return AvroContainer("null", 1<<40, -1, []byte{0}) }

// AvroHugeArrayCount is a container whose one record's array block claims
// 2^40 items.
func AvroHugeArrayCount() []byte { return AvroContainer("null", 1, -1, zigzag(nil, 1<<40)) }

// AvroBomb is a container whose one block, compressed with codec
// ("deflate", "zstandard"), expands to BombBytes.
func AvroBomb(codec string) []byte {
	name := map[string]string{"deflate": "DEFLATE", "zstandard": "ZSTD"}[codec]
	return AvroContainer(codec, 1, -1, Compressed(name, false, BombBytes))
}

// AvroSnappyClaim is a container whose one snappy block's preamble claims
// 2^32-1 decoded bytes.
func AvroSnappyClaim() []byte {
	body := binary.AppendUvarint(nil, 1<<32-1)
	body = append(body, 0, 0)
	body = binary.BigEndian.AppendUint32(body, crc32.ChecksumIEEE(nil))
	return AvroContainer("snappy", 1, -1, body)
}
