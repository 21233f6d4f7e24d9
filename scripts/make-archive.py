#!/usr/bin/env python3
"""Fills a user data store with a realistic forecast archive, for measuring what learning from it costs.

Usage: XDG_DATA_HOME=/tmp/arch isobar archive stats        # creates the store (places.sqlite)
       scripts/make-archive.py /tmp/arch/isobar/places.sqlite [DAYS]

Three sources (openweathermap, open-meteo/ecmwf_ifs025, met-norway) fetched four times a day for DAYS days (default
60) ending now, each answer 216 hourly steps (nine days), and a METAR report every 30 minutes: with 60 days, 155,520
archived steps and 2,880 observations for Minsk (53.9, 27.57). Values are a smooth truth plus each source's bias and
noise, seeded, so every run builds the same archive for the same hour.
"""
import json, math, random, sqlite3, sys, time

path = sys.argv[1]
days = int(sys.argv[2]) if len(sys.argv) > 2 else 60
latitude, longitude = 53.9, 27.57
now = int(time.time()) // 3600 * 3600
start = now - days * 86400
rng = random.Random(15)

def truth(t):
    hours = (t - start) / 3600
    return {
        "temperature": 5 + 6 * math.sin(hours * 2 * math.pi / 24) + 4 * math.sin(hours / 90),
        "humidity": 70 + 15 * math.sin(hours / 7),
        "pressure": 1013 + 8 * math.sin(hours / 40),
        "wind_speed": 4 + 2 * math.sin(hours / 11),
        "cloud_cover": 50 + 40 * math.sin(hours / 13),
        "dew_point": 1 + 4 * math.sin(hours / 50),
    }

sources = {"openweathermap": (0.8, 1.2), "open-meteo/ecmwf_ifs025": (0.0, 0.8), "met-norway": (-0.3, 1.0)}
db = sqlite3.connect(path)
steps = []
for issue in range(days * 4):
    issued = start + issue * 6 * 3600
    for provider, (bias, sigma) in sources.items():
        for lead in range(216):
            valid = issued + lead * 3600
            grow = 1 + lead / 48
            fields = {}
            for key, value in truth(valid).items():
                fields[key] = round(value + bias + rng.gauss(0, sigma * grow), 1)
            fields["wind_direction"] = round(rng.uniform(0, 359), 1)
            fields["precipitation_probability"] = round(rng.uniform(0, 100), 1)
            steps.append((provider, latitude, longitude, issued, valid, 1.0, "cloudy", json.dumps(fields, separators=(",", ":"))))
db.executemany("INSERT OR REPLACE INTO archive_steps(provider, latitude, longitude, issued_at, valid_at, period_hours, condition, fields)"
               " VALUES (?, ?, ?, ?, ?, ?, ?, ?)", steps)
observations = []
for half in range(days * 48):
    observed = start + half * 1800
    fields = {key: round(value + rng.gauss(0, 0.3), 1) for key, value in truth(observed).items()}
    condition = "rain" if rng.random() < 0.2 else "cloudy"
    observations.append(("metar", "UMMS", latitude, longitude, observed, condition, json.dumps(fields, separators=(",", ":"))))
db.executemany("INSERT OR REPLACE INTO archive_observations(source, station, latitude, longitude, observed_at, condition, fields)"
               " VALUES (?, ?, ?, ?, ?, ?, ?)", observations)
db.commit()
print(f"{len(steps)} steps, {len(observations)} observations in {path}")
