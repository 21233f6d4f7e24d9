#!/usr/bin/env python3
"""Compose the forecast history shipped with the demo, so that `isobar verify Minsk --demo` has something to show.

`isobar verify` checks archived forecasts against archived observations. A fresh install has no archive, and the demo
runs offline, so Isobar ships a small recorded history instead: config/demo-history/minsk.jsonl, in the format of
`isobar archive export` (one `archived_step` or `archived_observation` object a line, values in metric units) with the
`units` member left out to keep the file small (the reader takes such lines as metric).

How it is made (standard library only; a seeded random.Random, so every run writes the same bytes):

* A "truth" for Minsk over the 25 days before the demo's recording time (2026-11-28T09:00Z): a November day-to-day
  swing around +1 °C (a sum of slow sines plus a random walk), a diurnal cycle of ±2 °C peaking at 13:00 local, and
  precipitation spells from a two-state Markov chain (wet about a third of the time; snow below +0.5 °C).
* Observations as METAR reports of Minsk National (UMMS) every 3 hours: whole-degree temperatures and dew points, wind,
  pressure, and the present weather as a condition (rain, snow, drizzle…, or the cloud when dry).
* Forecasts issued daily at 00Z by the demo's five sources (OpenWeatherMap, MET Norway and Open-Meteo's three models), each seeing the truth through its own error model: a bias and an
  error that grows with lead time (a smooth AR(1) series along each forecast), and a chance of precipitation that
  knows less of the truth (and mistimes it more often) the further ahead it looks. Steps every 3 h for the first day,
  every 6 h to 3 days, every 12 h beyond, up to each source's horizon (OpenWeatherMap's hourly 2 days, MET Norway
  9 days, ICON 7.5, ECMWF IFS 15, GFS 16), and only those valid by the end of the history (later ones could not be checked).

Usage:

    python3 scripts/make-demo-history.py [--out config/demo-history/minsk.jsonl]
"""

import argparse
import math
import os
import random
from datetime import datetime, timedelta, timezone

END = datetime(2026, 11, 28, 9, 0, tzinfo=timezone.utc)
DAYS = 25
LATITUDE, LONGITUDE = 53.9, 27.57
STATION = "UMMS"
UTC_OFFSET_HOURS = 3

# provider: (temperature bias °C, error σ at issue, σ growth per sqrt(day), horizon hours, chance sharpness, chance bias)
PROVIDERS = {
    "met-norway": (-0.3, 0.6, 0.75, 9 * 24, 0.70, 0.00),
    "open-meteo/ecmwf_ifs025": (0.1, 0.6, 0.60, 15 * 24, 0.70, 0.02),
    "open-meteo/gfs_seamless": (0.8, 0.8, 0.70, 16 * 24, 0.60, 0.06),
    "open-meteo/icon_seamless": (-0.2, 0.7, 0.65, 180, 0.65, 0.03),
    "openweathermap": (0.9, 1.0, 0.60, 48, 0.80, 0.08),
}


def iso(instant):
    return instant.strftime("%Y-%m-%dT%H:%M:%S+00:00")


def number(value):
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text


def leads():
    return list(range(0, 24, 3)) + list(range(24, 72, 6)) + list(range(72, 16 * 24 + 1, 12))


def make_truth(rng, start, hours):
    """Hourly temperature (°C) and wetness (bool) from `start` for `hours` hours."""
    walk = 0.0
    temperature, wet = [], []
    state = False
    for hour in range(hours):
        day = hour / 24
        walk = 0.995 * walk + rng.gauss(0, 0.12)
        base = 1.0 + 3.5 * math.sin(day / 4.3 * 2 * math.pi) + 2.0 * math.sin(day / 9.1 * 2 * math.pi + 1.3) + walk
        local = (start + timedelta(hours=hour)).hour + UTC_OFFSET_HOURS
        diurnal = 2.0 * math.cos((local - 13) / 24 * 2 * math.pi)
        temperature.append(base + diurnal)
        if hour % 3 == 0:
            state = rng.random() < (0.82 if state else 0.09)
        wet.append(state)
    return temperature, wet


def condition(rng, temperature, wet):
    if wet:
        if temperature < 0.5:
            return "snow" if rng.random() < 0.7 else "snow_showers"
        return rng.choice(["rain", "rain", "drizzle", "rain_showers"])
    return rng.choice(["cloudy", "cloudy", "partly_cloudy", "mainly_clear", "fog"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "config", "demo-history", "minsk.jsonl"))
    arguments = parser.parse_args()
    rng = random.Random(20261128)
    start = END - timedelta(days=DAYS)
    hours = DAYS * 24 + 1
    temperature, wet = make_truth(rng, start, hours)
    lines = []
    for hour in range(0, hours, 3):
        instant = start + timedelta(hours=hour)
        observed = round(temperature[hour])
        dew = round(temperature[hour] - (0.8 if wet[hour] else 2.5) - rng.random())
        humidity = 100 * math.exp(17.62 * dew / (243.12 + dew)) / math.exp(17.62 * observed / (243.12 + observed))
        values = (f'"temperature":{number(observed)},"dew_point":{number(dew)},"humidity":{number(min(100, humidity))},'
                  f'"wind_speed":{number(round(rng.uniform(2, 12)) * 0.514444)},"pressure":{number(1013 + 12 * math.sin(hour / 97))}')
        lines.append('{"schema":1,"type":"archived_observation","observed_by":"metar","station":"%s","latitude":%s,"longitude":%s,'
                     '"observed_at":"%s","condition":"%s","values":{%s}}'
                     % (STATION, LATITUDE, LONGITUDE, iso(instant), condition(rng, temperature[hour], wet[hour]), values))
    for day in range(DAYS):
        issued = start + timedelta(days=day, hours=-start.hour)
        if issued < start:
            continue
        for provider, (bias, sigma0, growth, horizon, sharpness, chance_bias) in PROVIDERS.items():
            noise = 0.0
            for lead in leads():
                valid = issued + timedelta(hours=lead)
                if lead > horizon or valid > END:
                    break
                index = int((valid - start).total_seconds() // 3600)
                sigma = sigma0 + growth * math.sqrt(lead / 24)
                noise = 0.8 * noise + math.sqrt(1 - 0.8 ** 2) * rng.gauss(0, 1)
                forecast = temperature[index] + bias + sigma * noise
                # What the provider believes: the truth, mistimed more often the further ahead it looks.
                believed = wet[index] != (rng.random() < 0.12 + 0.25 * (1 - math.exp(-lead / 48)))
                knows = sharpness * math.exp(-lead / 96)
                chance = knows * (1.0 if believed else 0.0) + (1 - knows) * 0.33 + chance_bias + rng.gauss(0, 0.1)
                chance = max(0, min(100, round(chance * 10) * 10))
                lines.append('{"schema":1,"type":"archived_step","provider":"%s","latitude":%s,"longitude":%s,"issued_at":"%s",'
                             '"valid_at":"%s","lead_h":%d,"period_h":1,"condition":null,'
                             '"values":{"temperature":%s,"precipitation_probability":%d}}'
                             % (provider, LATITUDE, LONGITUDE, iso(issued), iso(valid), lead, number(forecast), chance))
    os.makedirs(os.path.dirname(arguments.out), exist_ok=True)
    with open(arguments.out, "w", encoding="utf-8") as file:
        file.write("\n".join(lines) + "\n")
    print(f"wrote {len(lines)} lines, {sum(len(line) + 1 for line in lines)} bytes to {arguments.out}")


if __name__ == "__main__":
    main()
