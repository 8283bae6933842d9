//go:build !lakecat_nos3

package blob

import _ "gocloud.dev/blob/s3blob" // s3://
