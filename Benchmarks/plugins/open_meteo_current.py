#!/usr/bin/env python3
"""Benchmark plug-in: current conditions from an Open-Meteo body, the Python twin of the shell + jq example."""
import json
import sys

message = json.loads(sys.stdin.read())
call = message["call"]
if call == "describe":
    answer = {"describe": {"id": "open-meteo-py", "name": "Open-Meteo (Python)", "kinds": ["current"], "coverage": "global",
                           "quantities": ["temperature", "humidity", "wind_speed", "wind_direction"]}}
elif call == "plan":
    place = message["request"]["place"]
    base = message.get("base_url") or "https://api.open-meteo.com"
    answer = {"requests": [{"url": "%s/v1/forecast?latitude=%s&longitude=%s&current=temperature_2m,relative_humidity_2m,"
                                   "wind_speed_10m,wind_direction_10m&wind_speed_unit=ms&timezone=GMT" % (base, place["latitude"], place["longitude"])}]}
else:
    current = json.loads(message["responses"][0]["body"])["current"]
    answer = {"report": {"units": "si", "current": {
        "time": current["time"] + ":00Z", "temperature_c": current["temperature_2m"], "humidity_percent": current["relative_humidity_2m"],
        "wind_speed_ms": current["wind_speed_10m"], "wind_direction_deg": current["wind_direction_10m"]}}}
json.dump({"protocol": 1, "ok": True, **answer}, sys.stdout)
