module github.com/tracekit/tracekit

go 1.26.0

require (
	github.com/alecthomas/kong v1.17.0
	github.com/alecthomas/participle/v2 v2.1.4
	github.com/kr/pretty v0.3.1
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	golang.org/x/arch v0.32.0
)

require (
	github.com/kr/text v0.2.0 // indirect
	github.com/rogpeppe/go-internal v1.9.0 // indirect
	golang.org/x/text v0.14.0 // indirect
)
