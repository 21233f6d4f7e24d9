#!/usr/bin/env python3
"""Compose the bundled MetAlerts demo cassette for Oslo (config/cassettes/met-alerts/oslo.json).

MetAlerts answers in two steps: an RSS 2.0 list of the CAP messages for a point, then one CAP 1.2 file per message.
The recording, made at the demo's instant (2026-11-28T09:00:00Z, 10:00 in Oslo), holds:

* a yellow snow warning (Alert), replaced by an orange one (Update referencing it): the orange one is in force;
* a yellow rain warning (Alert) withdrawn by a Cancel referencing it: neither is shown;
* a yellow ice warning that expired at 08:00 local time: gone;
* a yellow wind warning for the coast, in force.

Every CAP file carries a Norwegian and an English info block, as MET Norway's do. Standard library only. Usage:

    python3 scripts/make-alert-cassettes.py [--out DIR]
"""

import argparse
import json
import os
import sys

RECORDED_AT = "2026-11-28T09:00:00Z"
HOST = "https://api.met.no"
PATH = "/weatherapi/metalerts/2.0"
LAT, LON = "59.9127", "10.7461"
SENDER = "noreply@met.no"
OID = "2.49.0.1.578.0."
OSLO_AREA = "59.55,10.2 60.25,10.2 60.25,11.4 59.55,11.4 59.55,10.2"
COAST_AREA = "59.0,9.6 59.95,9.6 59.95,11.2 59.0,11.2 59.0,9.6"

MESSAGES = [
    {"id": OID + "20261127120000.001", "sent": "2026-11-27T13:00:00+01:00", "type": "Alert", "refs": [],
     "severity": "Moderate", "certainty": "Likely", "level": "2; yellow; Moderate",
     "onset": "2026-11-28T06:00:00+01:00", "expires": "2026-11-28T20:00:00+01:00", "area": OSLO_AREA, "county": "03",
     "no": ("Snø", "Snø, gult nivå", "Fra lørdag morgen til lørdag kveld ventes 10-15 cm snø.", "Beregn god tid til reisen.",
            "Oslo og Akershus"),
     "en": ("Snow", "Snow, yellow level", "From Saturday morning to Saturday evening 10-15 cm of snow is expected.",
            "Allow extra time for travel.", "Oslo and Akershus")},
    {"id": OID + "20261128063000.002", "sent": "2026-11-28T07:30:00+01:00", "type": "Update",
     "refs": [OID + "20261127120000.001"],
     "severity": "Severe", "certainty": "Likely", "level": "3; orange; Severe",
     "onset": "2026-11-28T06:00:00+01:00", "expires": "2026-11-29T06:00:00+01:00", "area": OSLO_AREA, "county": "03",
     "ending": "2026-11-29T03:00:00+01:00",
     "no": ("Snø", "Snø, oransje nivå", "Fra lørdag morgen til natt til søndag ventes 20-30 cm snø. Kraftige snøbyger & dårlig sikt.",
            "Unngå unødvendig reise. Følg med på meldinger fra myndighetene.", "Oslo og Akershus"),
     "en": ("Snow", "Snow, orange level",
            "From Saturday morning until Sunday night 20-30 cm of snow is expected. Heavy snow showers & poor visibility.",
            "Avoid unnecessary travel. Follow advice from the authorities.", "Oslo and Akershus")},
    {"id": OID + "20261127180000.003", "sent": "2026-11-27T19:00:00+01:00", "type": "Alert", "refs": [],
     "severity": "Moderate", "certainty": "Possible", "level": "2; yellow; Moderate",
     "onset": "2026-11-28T12:00:00+01:00", "expires": "2026-11-29T00:00:00+01:00", "area": OSLO_AREA, "county": "03",
     "no": ("Regn", "Regn, gult nivå", "Lørdag ettermiddag ventes 30-40 mm regn.", "Rens sluk og stikkrenner.", "Oslo og Akershus"),
     "en": ("Rain", "Rain, yellow level", "Saturday afternoon 30-40 mm of rain is expected.", "Clear drains and gutters.",
            "Oslo and Akershus")},
    {"id": OID + "20261128070000.004", "sent": "2026-11-28T08:00:00+01:00", "type": "Cancel",
     "refs": [OID + "20261127180000.003"],
     "severity": "Moderate", "certainty": "Possible", "level": "2; yellow; Moderate",
     "onset": "2026-11-28T12:00:00+01:00", "expires": "2026-11-29T00:00:00+01:00", "area": OSLO_AREA, "county": "03",
     "no": ("Regn", "Regn, gult nivå, kansellert", "Farevarselet er kansellert: nedbøren kommer som snø.", None, "Oslo og Akershus"),
     "en": ("Rain", "Rain, yellow level, cancelled", "The warning is cancelled: the precipitation falls as snow.", None,
            "Oslo and Akershus")},
    {"id": OID + "20261127060000.005", "sent": "2026-11-27T07:00:00+01:00", "type": "Alert", "refs": [],
     "severity": "Moderate", "certainty": "Likely", "level": "2; yellow; Moderate",
     "onset": "2026-11-27T18:00:00+01:00", "expires": "2026-11-28T08:00:00+01:00", "area": OSLO_AREA, "county": "03",
     "no": ("Is", "Is, gult nivå", "Underkjølt regn gir is på bakken.", "Bruk brodder.", "Oslo og Akershus"),
     "en": ("Ice", "Ice, yellow level", "Freezing rain gives ice on the ground.", "Use ice grips.", "Oslo and Akershus")},
    {"id": OID + "20261128050000.006", "sent": "2026-11-28T06:00:00+01:00", "type": "Alert", "refs": [],
     "severity": "Moderate", "certainty": "Likely", "level": "2; yellow; Moderate",
     "onset": "2026-11-28T09:00:00+01:00", "expires": "2026-11-28T22:00:00+01:00", "area": COAST_AREA, "county": "03",
     "no": ("Vind", "Vind, gult nivå", "Lørdag ventes sørvestlig stiv kuling 15 m/s, i utsatte områder vindkast 25 m/s.",
            "Sikre løse gjenstander.", "Oslofjorden"),
     "en": ("Wind", "Wind, yellow level", "Saturday southwest near gale 15 m/s, gusts of 25 m/s in exposed areas.",
            "Secure loose objects.", "Oslofjorden")},
]


def escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def info(message, language, texts):
    event, headline, description, instruction, area = texts
    lines = [
        "  <info>",
        f"    <language>{language}</language>",
        "    <category>Met</category>",
        f"    <event>{escape(event)}</event>",
        "    <responseType>Monitor</responseType>",
        "    <urgency>Future</urgency>" if message["onset"] > "2026-11-28T10" else "    <urgency>Immediate</urgency>",
        f"    <severity>{message['severity']}</severity>",
        f"    <certainty>{message['certainty']}</certainty>",
        f"    <effective>{message['sent']}</effective>",
        f"    <onset>{message['onset']}</onset>",
        f"    <expires>{message['expires']}</expires>",
        "    <senderName>MET Norway</senderName>",
        f"    <headline>{escape(headline)}</headline>",
        f"    <description>{escape(description)}</description>",
    ]
    if instruction:
        lines.append(f"    <instruction>{escape(instruction)}</instruction>")
    lines.append("    <web>https://www.met.no/vaer-og-klima/ekstremvaervarsler-og-andre-farevarsler</web>")
    lines += ["    <parameter>", "      <valueName>awareness_level</valueName>", f"      <value>{message['level']}</value>",
              "    </parameter>"]
    if "ending" in message:
        lines += ["    <parameter>", "      <valueName>eventEndingTime</valueName>", f"      <value>{message['ending']}</value>",
                  "    </parameter>"]
    lines += [
        "    <area>",
        f"      <areaDesc>{escape(area)}</areaDesc>",
        f"      <polygon>{message['area']}</polygon>",
        "      <geocode>",
        "        <valueName>county</valueName>",
        f"        <value>{message['county']}</value>",
        "      </geocode>",
        "    </area>",
        "  </info>",
    ]
    return lines


def cap(message):
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<alert xmlns="urn:oasis:names:tc:emergency:cap:1.2">',
        f"  <identifier>{message['id']}</identifier>",
        f"  <sender>{SENDER}</sender>",
        f"  <sent>{message['sent']}</sent>",
        "  <status>Actual</status>",
        f"  <msgType>{message['type']}</msgType>",
        "  <scope>Public</scope>",
    ]
    if message["refs"]:
        refs = " ".join(f"{SENDER},{ref},{sent_of(ref)}" for ref in message["refs"])
        lines.append(f"  <references>{refs}</references>")
    lines += info(message, "no", message["no"])
    lines += info(message, "en-GB", message["en"])
    lines.append("</alert>")
    return "\n".join(lines) + "\n"


def sent_of(identifier):
    return next(m["sent"] for m in MESSAGES if m["id"] == identifier)


def rss():
    items = []
    for message in MESSAGES:
        title = f"{message['en'][1]}, {message['en'][4]}, {message['onset']}, {message['expires']}"
        items.append("\n".join([
            "    <item>",
            f"      <title>{escape(title)}</title>",
            f"      <description>{escape(message['en'][2])}</description>",
            f"      <link>{HOST}{PATH}/current?cap={message['id']}</link>",
            "      <author>post@met.no (The Norwegian Meteorological Institute)</author>",
            "      <category>Met</category>",
            f"      <guid>{message['id']}</guid>",
            f"      <pubDate>{message['sent']}</pubDate>",
            "    </item>",
        ]))
    return "\n".join([
        '<?xml version="1.0"?>',
        '<rss version="2.0">',
        "  <channel>",
        "    <title>MET Norway Weather alerts</title>",
        "    <link>https://api.met.no</link>",
        "    <description>Weather alerts from the Norwegian Meteorological Institute</description>",
        "    <language>en</language>",
        "    <copyright>Copyright The Norwegian Meteorological Institute, licensed under Norwegian license for public data (NLOD) "
        "and Creative Commons 4.0 BY</copyright>",
        "    <pubDate>Sat, 28 Nov 2026 09:00:00 +0000</pubDate>",
        *items,
        "  </channel>",
        "</rss>",
    ]) + "\n"


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description="Compose Isobar's bundled MetAlerts demo cassette.")
    parser.add_argument("--out", default=os.path.join(here, os.pardir, "config", "cassettes"),
                        help="output directory (default: config/cassettes)")
    args = parser.parse_args(argv)
    xml = [["Content-Type", "application/xml; charset=utf-8"]]
    interactions = [{
        "request": {"method": "GET", "url": f"{HOST}{PATH}/current.rss?lat={LAT}&lon={LON}"},
        "response": {"status": 200, "headers": xml + [["Expires", "Sat, 28 Nov 2026 09:10:00 GMT"]], "body": rss()},
    }]
    for message in MESSAGES:
        interactions.append({
            "request": {"method": "GET", "url": f"{HOST}{PATH}/current?cap={message['id']}"},
            "response": {"status": 200, "headers": xml, "body": cap(message)},
        })
    data = {"format": "isobar-cassette", "version": 1, "recorded_at": RECORDED_AT, "interactions": interactions}
    path = os.path.join(os.path.normpath(args.out), "met-alerts", "oslo.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
