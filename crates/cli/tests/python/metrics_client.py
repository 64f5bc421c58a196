"""Scrapes `parity serve`'s /metrics with the token, as Prometheus would,
and reads it with prometheus_client's own parser (`pip install
prometheus-client`). Checks every family is there with its type, then
prints the samples as JSON for the Rust test to check the numbers.

Usage: metrics_client.py BASE_URL TOKEN
"""

import json
import sys
import urllib.request

from prometheus_client.parser import text_string_to_metric_families

EXPECTED = {
    "parity_live_games": "gauge",
    "parity_connections": "gauge",
    "parity_sockets": "gauge",
    # The parser names a counter's family without its `_total`.
    "parity_moves": "counter",
    "parity_turn_latency_seconds": "histogram",
    "parity_commit_latency_seconds": "histogram",
    "parity_engine_queue": "gauge",
    "parity_engine_workers": "gauge",
    "parity_engine_busy": "gauge",
    "parity_rate_limit_refusals": "counter",
    "parity_node_leases": "gauge",
}


def main():
    base, token = sys.argv[1], sys.argv[2]
    request = urllib.request.Request(
        base + "/metrics", headers={"Authorization": "Bearer " + token}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 200, response.status
        content_type = response.headers["Content-Type"]
        assert content_type.startswith("text/plain"), content_type
        text = response.read().decode("utf-8")
    families = {f.name: f for f in text_string_to_metric_families(text)}
    for name, kind in EXPECTED.items():
        assert name in families, f"no family {name} in {sorted(families)}"
        assert families[name].type == kind, f"{name} is a {families[name].type}, not a {kind}"
        assert families[name].documentation, f"{name} has no HELP"
    samples = {}
    for family in families.values():
        for sample in family.samples:
            labels = ",".join(f'{k}="{v}"' for k, v in sorted(sample.labels.items()))
            samples[f"{sample.name}{{{labels}}}" if labels else sample.name] = sample.value
    print(json.dumps(samples, sort_keys=True))


if __name__ == "__main__":
    main()
