//go:build !lakecat_nos3

package blobfs

import _ "gocloud.dev/blob/s3blob" // s3://
