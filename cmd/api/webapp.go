package main

import (
	"encoding/json"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// handleWebapp serves the built React app from dir: existing files as they
// are (hashed assets cached for a year, their brotli or gzip copy when the
// browser accepts one), every other path the app's index.html, so client
// routes load and unknown paths show the app's 404 screen, with a 404
// status when no route of the app's routes.json matches. Dot-files (such as
// Vite's .vite/manifest.json) are never served. The HTML answer of a route
// in the build's preload.json names that route's chunks (webapp_preload.go).
func handleWebapp(d Deps) http.HandlerFunc {
	dir := d.Config.WebappDir
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeError(w, r, d.Log, errStatus(http.StatusMethodNotAllowed, "Method not allowed"))
			return
		}
		clean := path.Clean("/" + r.URL.Path)
		if clean != "/" && !hasDotSegment(clean) {
			file := filepath.Join(dir, filepath.FromSlash(clean))
			if st, err := os.Stat(file); err == nil && st.Mode().IsRegular() {
				if strings.HasPrefix(clean, "/assets/") {
					w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
				}
				serveFile(w, r, file)
				return
			}
		}
		index := filepath.Join(dir, "index.html")
		if _, err := os.Stat(index); err != nil {
			writeError(w, r, d.Log, errStatus(http.StatusServiceUnavailable, "The webapp is not built: run `make build` (or `make run`)."))
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		syncSignedOutHint(w, r, d)
		if !isAppRoute(dir, clean) {
			// The app renders its not-found screen; crawlers and tools see
			// the status.
			body, err := os.ReadFile(index)
			if err != nil {
				writeError(w, r, d.Log, err)
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write(body)
			return
		}
		if files, signedIn := routePreloads(dir, clean, sessionToken(d, r) != ""); len(files) > 0 {
			body, err := os.ReadFile(index)
			if err != nil {
				writeError(w, r, d.Log, err)
				return
			}
			w.Header().Add("Vary", "Cookie") // a signed-in page's preloads depend on the session
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			body = withPreloads(body, files)
			if signedIn {
				// The session's answers in the page (webapp_bootstrap.go): never stored.
				noStore(w)
				body = withBootstrap(body, bootstrapAnswers(r))
			}
			_, _ = w.Write(body)
			return
		}
		serveFile(w, r, index)
	}
}

// encodings are the precompressed copies the build writes beside a file
// (webapp/vite.config.ts), best first.
var encodings = []struct{ name, ext string }{{"br", ".br"}, {"gzip", ".gz"}}

// serveFile serves file, or its precompressed copy in an encoding the
// request accepts, with the original's content type.
func serveFile(w http.ResponseWriter, r *http.Request, file string) {
	chosen, encoding := file, ""
	for _, e := range encodings {
		st, err := os.Stat(file + e.ext)
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		w.Header().Add("Vary", "Accept-Encoding") // a copy exists: the answer depends on it
		if accepts(r.Header.Get("Accept-Encoding"), e.name) {
			chosen, encoding = file+e.ext, e.name
			break
		}
	}
	if encoding == "" {
		http.ServeFile(w, r, file)
		return
	}
	f, err := os.Open(chosen)
	if err != nil {
		http.ServeFile(w, r, file)
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		http.ServeFile(w, r, file)
		return
	}
	if ct := mime.TypeByExtension(filepath.Ext(file)); ct != "" {
		w.Header().Set("Content-Type", ct)
	}
	w.Header().Set("Content-Encoding", encoding)
	http.ServeContent(w, r, filepath.Base(file), st.ModTime(), f)
}

// accepts says whether an Accept-Encoding header value accepts coding (by
// name or *, with a q-value above 0).
func accepts(header, coding string) bool {
	for part := range strings.SplitSeq(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name != coding && name != "*" {
			continue
		}
		q := 1.0
		for p := range strings.SplitSeq(params, ";") {
			if k, v, ok := strings.Cut(strings.TrimSpace(p), "="); ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				}
			}
		}
		return q > 0
	}
	return false
}

// isAppRoute says whether p is a route of the app, from the routes.json the
// build writes (webapp/vite.config.ts: `*` stands for one segment). Matching
// is as React Router's: case-insensitive, a trailing slash ignored. Without
// the file (an older build) every path is taken for a route.
func isAppRoute(dir, p string) bool {
	data, err := os.ReadFile(filepath.Join(dir, "routes.json"))
	if err != nil {
		return true
	}
	var routes []string
	if json.Unmarshal(data, &routes) != nil {
		return true
	}
	p = strings.ToLower(strings.TrimSuffix(p, "/"))
	for _, route := range routes {
		route = strings.ToLower(strings.TrimSuffix(route, "/"))
		if ok, _ := path.Match(route, p); ok || route == p {
			return true
		}
	}
	return false
}

func hasDotSegment(p string) bool {
	for _, seg := range strings.Split(p, "/") {
		if strings.HasPrefix(seg, ".") {
			return true
		}
	}
	return false
}
