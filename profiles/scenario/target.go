package scenario

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"

	"github.com/vesload/vesload/internal/inputfile"
	"github.com/vesload/vesload/internal/redact"
	"github.com/vesload/vesload/profiles"
)

// CheckURL checks a target URL: http or https with a host. Its error
// quotes the URL with any password hidden, for the caller to prefix with
// the flag or field it came from.
func CheckURL(raw string) error {
	_, err := parseTarget(raw)
	return err
}

func parseTarget(raw string) (*url.URL, error) {
	if msg := profiles.MissingScheme(raw); msg != "" {
		return nil, fmt.Errorf("%q: %s", redact.URL(raw), msg)
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return nil, fmt.Errorf("%q: not a URL", redact.URL(raw))
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("%q: want an http:// or https:// URL", redact.URL(raw))
	case u.Host == "" || u.Hostname() == "":
		return nil, fmt.Errorf("%q: no host", redact.URL(raw))
	}
	if err := checkPort(u.Port()); err != nil {
		return nil, fmt.Errorf("%q: %w", redact.URL(raw), err)
	}
	return u, nil
}

// checkPort refuses a port that is not a number from 1 to 65535; an
// empty port passes (the scheme's default).
func checkPort(p string) error {
	if p == "" {
		return nil
	}
	if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
		return fmt.Errorf("port %s out of range (want 1 to 65535)", p)
	}
	return nil
}

// CheckAddr checks a HOST:PORT address (HV-VES's --addr) in the words
// CheckURL uses for a URL's port, so that a typo is one line and bad
// usage before any connection, whichever command it was given to.
func CheckAddr(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	switch {
	case err != nil:
		return fmt.Errorf("%q: want HOST:PORT, e.g. 127.0.0.1:6061", addr)
	case host == "":
		return fmt.Errorf("%q: no host (want HOST:PORT, e.g. 127.0.0.1:6061)", addr)
	case port == "":
		return fmt.Errorf("%q: no port (want HOST:PORT, e.g. 127.0.0.1:6061)", addr)
	}
	if err := checkPort(port); err != nil {
		return fmt.Errorf("%q: %w", addr, err)
	}
	return nil
}

// passwordEnv is where the password of a user given without one is read:
// the README documents it as --password-file's default.
const passwordEnv = "VESLOAD_PASSWORD"

// credentials returns the basic auth user and password: from the
// scenario's auth (a password file or environment variable), else from
// the URL's user info, else $VESLOAD_PASSWORD with the user. A user
// without a password is refused: sending "user:" would only earn 401s
// that look like the collector's fault.
func credentials(a *profiles.Auth, u *url.URL, lookupEnv func(string) (string, bool)) (user, password string, err error) {
	missing := envMissing(passwordEnv)
	if a != nil {
		user = a.User
		switch {
		case a.PasswordFile != "":
			missing = "password file " + a.PasswordFile + " is empty"
			if password, err = ReadSecretFile("password file", a.PasswordFile); err != nil {
				return "", "", err
			}
		case a.PasswordEnv != "":
			missing = envMissing(a.PasswordEnv)
			password, _ = lookupEnv(a.PasswordEnv)
		}
	}
	if u.User != nil {
		if user == "" {
			user = u.User.Username()
		}
		if pw, ok := u.User.Password(); ok && password == "" {
			password = pw
		}
	}
	if password == "" && user != "" && a == nil {
		password, _ = lookupEnv(passwordEnv)
	}
	if user != "" && password == "" {
		return "", "", fmt.Errorf("no password for user %s: %s", user, missing)
	}
	return user, password, nil
}

func envMissing(name string) string {
	return "$" + name + " is empty or not set (set it, or give --password-file)"
}

// ReadSecretFile reads a password from a file; a trailing newline is not
// part of it. Errors name what the file is for, never its content.
func ReadSecretFile(what, path string) (string, error) {
	b, err := inputfile.ReadFile(path, what, inputfile.Secret)
	if err != nil {
		return "", err
	}
	return strings.TrimRight(string(b), "\r\n"), nil
}

// InputFile is a file an option names for reading.
type InputFile struct{ Option, Path string }

// CheckInputFiles checks, before anything is read, that every file named
// exists and is not a folder, so that a typo's error names its option
// rather than the scenario the file ends up in. Empty paths are skipped.
func CheckInputFiles(files ...InputFile) error {
	for _, f := range files {
		if f.Path == "" {
			continue
		}
		if st, err := os.Stat(f.Path); err != nil {
			return fmt.Errorf("%s: %v", f.Option, err)
		} else if st.IsDir() {
			return fmt.Errorf("%s %s: is a folder, want a file", f.Option, f.Path)
		}
	}
	return nil
}
