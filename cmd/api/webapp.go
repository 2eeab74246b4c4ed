package main

import (
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// handleWebapp serves the built React app from dir: existing files as they
// are (hashed assets cached for a year), every other path the app's
// index.html, so client routes load and unknown paths show the app's 404
// screen. Dot-files (such as Vite's .vite/manifest.json) are never served.
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
				http.ServeFile(w, r, file)
				return
			}
		}
		index := filepath.Join(dir, "index.html")
		if _, err := os.Stat(index); err != nil {
			writeError(w, r, d.Log, errStatus(http.StatusServiceUnavailable, "The webapp is not built: run `make build` (or `make run`)."))
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		http.ServeFile(w, r, index)
	}
}

func hasDotSegment(p string) bool {
	for _, seg := range strings.Split(p, "/") {
		if strings.HasPrefix(seg, ".") {
			return true
		}
	}
	return false
}
