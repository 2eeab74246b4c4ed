package config

import "testing"

func TestMessageTransport(t *testing.T) {
	for _, tc := range []struct {
		name, transport, natsURL string
		wantKind, wantURL        string
		wantErr                  bool
	}{
		{name: "default", wantKind: TransportSQL},
		{name: "sql ignores NATS_URL", transport: "sql", natsURL: "nats://10.0.0.5:4222", wantKind: TransportSQL},
		{name: "nats default URL", transport: "nats", wantKind: TransportNATS, wantURL: DefaultNATSURL},
		{name: "nats URL", transport: "nats", natsURL: "nats://10.0.0.5:4222", wantKind: TransportNATS, wantURL: "nats://10.0.0.5:4222"},
		{name: "nats cluster", transport: "nats", natsURL: "nats://a:4222,tls://b:4222", wantKind: TransportNATS, wantURL: "nats://a:4222,tls://b:4222"},
		{name: "unknown transport", transport: "kafka", wantErr: true},
		{name: "upper case", transport: "NATS", wantErr: true},
		{name: "http URL", transport: "nats", natsURL: "http://10.0.0.5:4222", wantErr: true},
		{name: "no host", transport: "nats", natsURL: "nats://", wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Load(func(k string) string {
				switch k {
				case "MESSAGE_TRANSPORT":
					return tc.transport
				case "NATS_URL":
					return tc.natsURL
				case "APP_ENV":
					return Development
				}
				return ""
			})
			if tc.wantErr {
				if err == nil {
					t.Fatalf("accepted: %+v", c)
				}
				return
			}
			if err != nil || c.MessageTransport != tc.wantKind || c.NATSURL != tc.wantURL {
				t.Fatalf("got %q %q, %v; want %q %q", c.MessageTransport, c.NATSURL, err, tc.wantKind, tc.wantURL)
			}
		})
	}
}
