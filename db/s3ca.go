package db

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"os"
	"reflect"
	"sync"
	"unsafe"

	"github.com/benbjohnson/litestream"
)

// caBundleEnv names the PEM file of the CA certificates an S3-compatible
// server with a private CA is trusted with, as the AWS tools read it.
const caBundleEnv = "AWS_CA_BUNDLE"

// envMu keeps two replica clients from hiding caBundleEnv at once.
var envMu sync.Mutex

// initS3WithCABundle initialises the S3 replica client c so that it
// trusts the system's CAs and those of the PEM file bundle. The AWS SDK
// refuses the bundle together with the HTTP client Litestream gives it
// ("unable to add custom RootCAs"), so the SDK is initialised without
// seeing it and the bundle goes into that HTTP client's TLS settings.
// Errors: the bundle is unreadable or holds no certificate, Init fails,
// or the client's HTTP transport cannot be reached.
func initS3WithCABundle(ctx context.Context, c litestream.ReplicaClient, bundle string) error {
	b, err := os.ReadFile(bundle)
	if err != nil {
		return fmt.Errorf("%s: %w", caBundleEnv, err)
	}
	pool, err := x509.SystemCertPool()
	if err != nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(b) {
		return fmt.Errorf("%s %s holds no PEM certificate", caBundleEnv, bundle)
	}
	envMu.Lock()
	os.Unsetenv(caBundleEnv)
	err = c.Init(ctx)
	os.Setenv(caBundleEnv, bundle)
	envMu.Unlock()
	if err != nil {
		return err
	}
	tr, err := s3Transport(c)
	if err != nil {
		return fmt.Errorf("%s: %w", caBundleEnv, err)
	}
	tr.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	return nil
}

// s3Transport returns the HTTP transport of an initialised Litestream S3
// replica client: its AWS client's Options().HTTPClient, an *http.Client
// (Litestream keeps the AWS client in an unexported field).
func s3Transport(c litestream.ReplicaClient) (*http.Transport, error) {
	v := reflect.ValueOf(c)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return nil, errors.New("not Litestream's S3 client")
	}
	f := v.Elem().FieldByName("s3")
	if !f.IsValid() || f.Kind() != reflect.Pointer || f.IsNil() {
		return nil, errors.New("Litestream's S3 client holds no AWS client")
	}
	aws := reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
	opts := aws.MethodByName("Options")
	if !opts.IsValid() {
		return nil, errors.New("the AWS client has no Options")
	}
	hc := opts.Call(nil)[0].FieldByName("HTTPClient")
	if !hc.IsValid() {
		return nil, errors.New("the AWS client's options have no HTTPClient")
	}
	client, ok := hc.Interface().(*http.Client)
	if !ok {
		return nil, fmt.Errorf("the AWS client's HTTP client is a %T", hc.Interface())
	}
	tr, ok := client.Transport.(*http.Transport)
	if !ok {
		return nil, fmt.Errorf("the AWS client's HTTP transport is a %T", client.Transport)
	}
	return tr, nil
}
