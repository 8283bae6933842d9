//go:build !lakecat_nogcs

package blobfs

import _ "gocloud.dev/blob/gcsblob" // gs://
