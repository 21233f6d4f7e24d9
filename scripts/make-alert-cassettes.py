#!/usr/bin/env python3
"""Compose the bundled alert demo cassettes: MetAlerts for Oslo (config/cassettes/met-alerts/oslo.json) and MeteoAlarm's
United Kingdom feed for London (config/cassettes/meteoalarm/london.json, see meteoalarm_london below).

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
    write(os.path.join(os.path.normpath(args.out), "met-alerts", "oslo.json"), data)
    write(os.path.join(os.path.normpath(args.out), "meteoalarm", "london.json"), meteoalarm_london())
    return 0


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    print(path)


# MeteoAlarm: the United Kingdom's Atom feed (one entry per warning and area, each linking the warning's CAP 1.2 file),
# then one CAP file per warning. Recorded at the same instant (09:00 in London). The demo configuration gives London the
# area code UK012 (London & South East England). The recording holds:
#
# * a yellow wind warning whose area has a polygon holding London: placed by its polygon, in force;
# * a yellow rain warning for UK012 (no polygon), replaced by an Update for UK012 (longer, more certain): placed by the
#   configured code, the Update in force;
# * a yellow ice warning for UK012 withdrawn by a Cancel: neither is shown;
# * a yellow fog warning for UK012 that expired at 08:00: gone;
# * warnings for Scottish areas given by code only (Strathclyde and Grampian in one, Orkney & Shetland in another): they
#   cannot be placed at London, and a note counts them;
# * a rain warning whose polygon lies in the Highlands: known not to be London's, not counted;
# * a green level message for Wales ("no particular awareness"): not a warning, left out.
MA_HOST = "https://feeds.meteoalarm.org"
MA_FEED = "united-kingdom"
MA_SENDER = "https://www.metoffice.gov.uk/weather/warnings-and-advice/uk-warnings"
MA_OID = "2.49.0.0.826.0.GB_"
MA_WEB = "https://www.metoffice.gov.uk/weather/warnings-and-advice/uk-warnings"
LONDON_SE = ("London & South East England", "UK012")
SOUTH_EAST_POLYGON = "51.05,-1.2 51.05,1.45 51.85,1.45 51.85,-1.2 51.05,-1.2"
HIGHLANDS_POLYGON = "56.9,-6.2 56.9,-3.6 58.6,-3.6 58.6,-6.2 56.9,-6.2"

MA_MESSAGES = [
    {"uuid": "0b6f6a3e-6c1e-4d52-9d0e-3f0c6a1b2c01", "id": MA_OID + "261127100000_1a2b3c01", "sent": "2026-11-27T10:00:00+00:00",
     "type": "Alert", "refs": [], "event": "Yellow wind warning", "level": "2; yellow; Moderate", "kind": "1; Wind",
     "severity": "Moderate", "urgency": "Immediate", "certainty": "Likely",
     "onset": "2026-11-28T06:00:00+00:00", "expires": "2026-11-28T21:00:00+00:00",
     "headline": "Strong south-westerly winds may bring some disruption to travel.",
     "description": "Gusts of 45 to 55 mph are likely in places, perhaps 60 mph on exposed coasts.",
     "instruction": "Delays to road, rail and ferry services are possible. Secure loose objects.",
     "areas": [("London & South East England", "UK012", SOUTH_EAST_POLYGON)]},
    {"uuid": "0b6f6a3e-6c1e-4d52-9d0e-3f0c6a1b2c02", "id": MA_OID + "261127110000_1a2b3c02", "sent": "2026-11-27T11:00:00+00:00",
     "type": "Alert", "refs": [], "event": "Yellow rain warning", "level": "2; yellow; Moderate", "kind": "10; Rain",
     "severity": "Moderate", "urgency": "Future", "certainty": "Possible",
     "onset": "2026-11-29T03:00:00+00:00", "expires": "2026-11-29T12:00:00+00:00",
     "headline": "Heavy rain may cause some flooding.",
     "description": "15 to 25 mm of rain may fall in a few hours early on Sunday.",
     "instruction": "Spray and flooding could make journeys longer.",
     "areas": [LONDON_SE + (None,)]},
    {"uuid": "0b6f6a3e-6c1e-4d52-9d0e-3f0c6a1b2c03", "id": MA_OID + "261128073000_1a2b3c03", "sent": "2026-11-28T07:30:00+00:00",
     "type": "Update", "refs": [MA_OID + "261127110000_1a2b3c02"], "event": "Yellow rain warning",
     "level": "2; yellow; Moderate", "kind": "10; Rain", "severity": "Moderate", "urgency": "Future", "certainty": "Likely",
     "onset": "2026-11-29T03:00:00+00:00", "expires": "2026-11-29T15:00:00+00:00",
     "headline": "Heavy rain is likely to cause some flooding and disruption.",
     "description": "20 to 30 mm of rain is likely early on Sunday, lasting into the afternoon.",
     "instruction": "Spray and flooding will make journeys longer. Some homes and businesses could be flooded.",
     "areas": [LONDON_SE + (None,)]},
    {"uuid": "0b6f6a3e-6c1e-4d52-9d0e-3f0c6a1b2c04", "id": MA_OID + "261127150000_1a2b3c04", "sent": "2026-11-27T15:00:00+00:00",
     "type": "Alert", "refs": [], "event": "Yellow ice warning", "level": "2; yellow; Moderate", "kind": "2; Snow-Ice",
     "severity": "Moderate", "urgency": "Future", "certainty": "Possible",
     "onset": "2026-11-28T18:00:00+00:00", "expires": "2026-11-29T10:00:00+00:00",
     "headline": "Icy patches may form on untreated surfaces.",
     "description": "Temperatures may fall below freezing after showers.", "instruction": "Take care on pavements.",
     "areas": [LONDON_SE + (None,)]},
    {"uuid": "0b6f6a3e-6c1e-4d52-9d0e-3f0c6a1b2c05", "id": MA_OID + "261128080000_1a2b3c05", "sent": "2026-11-28T08:00:00+00:00",
     "type": "Cancel", "refs": [MA_OID + "261127150000_1a2b3c04"], "event": "Yellow ice warning",
     "level": "2; yellow; Moderate", "kind": "2; Snow-Ice", "severity": "Moderate", "urgency": "Future", "certainty": "Possible",
     "onset": "2026-11-28T18:00:00+00:00", "expires": "2026-11-29T10:00:00+00:00",
     "headline": "The ice warning is cancelled: temperatures will stay above freezing.",
     "description": "Cloud and wind will keep temperatures above freezing overnight.", "instruction": None,
     "areas": [LONDON_SE + (None,)]},
    {"uuid": "0b6f6a3e-6c1e-4d52-9d0e-3f0c6a1b2c06", "id": MA_OID + "261127200000_1a2b3c06", "sent": "2026-11-27T20:00:00+00:00",
     "type": "Alert", "refs": [], "event": "Yellow fog warning", "level": "2; yellow; Moderate", "kind": "4; Fog",
     "severity": "Moderate", "urgency": "Immediate", "certainty": "Likely",
     "onset": "2026-11-27T22:00:00+00:00", "expires": "2026-11-28T08:00:00+00:00",
     "headline": "Dense fog may bring slower journeys.", "description": "Visibility below 100 metres in places.",
     "instruction": "Allow extra time for travel.", "areas": [LONDON_SE + (None,)]},
    {"uuid": "0b6f6a3e-6c1e-4d52-9d0e-3f0c6a1b2c07", "id": MA_OID + "261128050000_1a2b3c07", "sent": "2026-11-28T05:00:00+00:00",
     "type": "Alert", "refs": [], "event": "Yellow snow warning", "level": "2; yellow; Moderate", "kind": "2; Snow-Ice",
     "severity": "Moderate", "urgency": "Immediate", "certainty": "Likely",
     "onset": "2026-11-28T06:00:00+00:00", "expires": "2026-11-28T23:00:00+00:00",
     "headline": "Snow showers may bring some travel disruption.", "description": "2 to 5 cm of snow above 200 metres.",
     "instruction": "Allow extra time for travel.",
     "areas": [("Strathclyde", "UK105", None), ("Grampian", "UK103", None)]},
    {"uuid": "0b6f6a3e-6c1e-4d52-9d0e-3f0c6a1b2c08", "id": MA_OID + "261128040000_1a2b3c08", "sent": "2026-11-28T04:00:00+00:00",
     "type": "Alert", "refs": [], "event": "Yellow wind warning", "level": "2; yellow; Moderate", "kind": "1; Wind",
     "severity": "Moderate", "urgency": "Immediate", "certainty": "Likely",
     "onset": "2026-11-28T03:00:00+00:00", "expires": "2026-11-28T18:00:00+00:00",
     "headline": "Gales may disrupt ferry services.", "description": "Gusts of 65 to 75 mph around the islands.",
     "instruction": "Check ferry times before travelling.", "areas": [("Orkney & Shetland", "UK101", None)]},
    {"uuid": "0b6f6a3e-6c1e-4d52-9d0e-3f0c6a1b2c09", "id": MA_OID + "261128060000_1a2b3c09", "sent": "2026-11-28T06:00:00+00:00",
     "type": "Alert", "refs": [], "event": "Yellow rain warning", "level": "2; yellow; Moderate", "kind": "10; Rain",
     "severity": "Moderate", "urgency": "Immediate", "certainty": "Likely",
     "onset": "2026-11-28T06:00:00+00:00", "expires": "2026-11-28T20:00:00+00:00",
     "headline": "Persistent rain may lead to some flooding.", "description": "40 to 60 mm of rain over high ground.",
     "instruction": "Avoid walking or driving through floodwater.",
     "areas": [("Highlands & Eilean Siar", "UK102", HIGHLANDS_POLYGON)]},
    {"uuid": "0b6f6a3e-6c1e-4d52-9d0e-3f0c6a1b2c10", "id": MA_OID + "261128050000_1a2b3c10", "sent": "2026-11-28T05:00:00+00:00",
     "type": "Alert", "refs": [], "event": "No special awareness required", "level": "1; green; Minor", "kind": "1; Wind",
     "severity": "Minor", "urgency": "Future", "certainty": "Likely",
     "onset": "2026-11-28T00:00:00+00:00", "expires": "2026-11-29T00:00:00+00:00",
     "headline": "No particular awareness of the weather is required.", "description": "Breezy at times.", "instruction": None,
     "areas": [("Wales", "UK117", None)]},
]


def ma_cap(message):
    lines = [
        '<?xml version="1.0" encoding="utf-8" standalone="yes" ?>',
        '<alert xmlns="urn:oasis:names:tc:emergency:cap:1.2">',
        f"  <identifier>{message['id']}</identifier>",
        f"  <sender>{MA_SENDER}</sender>",
        f"  <sent>{message['sent']}</sent>",
        "  <status>Actual</status>",
        f"  <msgType>{message['type']}</msgType>",
        "  <source>2.49.0.0.826.0.GB</source>",
        "  <scope>Public</scope>",
    ]
    if message["refs"]:
        sent = {m["id"]: m["sent"] for m in MA_MESSAGES}
        lines.append("  <references>" + " ".join(f"{MA_SENDER},{ref},{sent[ref]}" for ref in message["refs"]) + "</references>")
    lines += [
        "  <info>",
        "    <language>en-GB</language>",
        "    <category>Met</category>",
        f"    <event>{escape(message['event'])}</event>",
        "    <responseType>Prepare</responseType>",
        f"    <urgency>{message['urgency']}</urgency>",
        f"    <severity>{message['severity']}</severity>",
        f"    <certainty>{message['certainty']}</certainty>",
        f"    <effective>{message['sent']}</effective>",
        f"    <onset>{message['onset']}</onset>",
        f"    <expires>{message['expires']}</expires>",
        "    <senderName>UK Met Office</senderName>",
        f"    <headline>{escape(message['headline'])}</headline>",
        f"    <description>{escape(message['description'])}</description>",
    ]
    if message["instruction"]:
        lines.append(f"    <instruction>{escape(message['instruction'])}</instruction>")
    lines.append(f"    <web>{MA_WEB}</web>")
    for name, value in (("awareness_level", message["level"]), ("awareness_type", message["kind"])):
        lines += ["    <parameter>", f"      <valueName>{name}</valueName>", f"      <value>{value}</value>", "    </parameter>"]
    for description, code, polygon in message["areas"]:
        lines += ["    <area>", f"      <areaDesc>{escape(description)}</areaDesc>"]
        if polygon:
            lines.append(f"      <polygon>{polygon}</polygon>")
        lines += ["      <geocode>", "        <valueName>EMMA_ID</valueName>", f"        <value>{code}</value>", "      </geocode>",
                  "    </area>"]
    lines += ["  </info>", "</alert>"]
    return "\n".join(lines) + "\n"


def ma_atom():
    entries = []
    for message in MA_MESSAGES:
        for index, (description, code, _) in enumerate(message["areas"]):
            link = f"{MA_HOST}/api/v1/warnings/feeds-{MA_FEED}/{message['uuid']}"
            entries.append("\n".join([
                "\t<entry>",
                "\t\t<cap:geocode>",
                "\t\t\t<valueName>EMMA_ID</valueName>",
                f"\t\t\t<value>{code}</value>",
                "\t\t</cap:geocode>",
                f"\t\t<cap:areaDesc>{escape(description)}</cap:areaDesc>",
                f"\t\t<cap:event>{escape(message['event'])}</cap:event>",
                f"\t\t<cap:sent>{message['sent']}</cap:sent>",
                f"\t\t<cap:expires>{message['expires']}</cap:expires>",
                f"\t\t<cap:effective>{message['sent']}</cap:effective>",
                f"\t\t<cap:onset>{message['onset']}</cap:onset>",
                f"\t\t<cap:certainty>{message['certainty']}</cap:certainty>",
                f"\t\t<cap:severity>{message['severity']}</cap:severity>",
                f"\t\t<cap:urgency>{message['urgency']}</cap:urgency>",
                "\t\t<cap:scope>Public</cap:scope>",
                f"\t\t<cap:message_type>{message['type']}</cap:message_type>",
                "\t\t<cap:status>Actual</cap:status>",
                f"\t\t<cap:identifier>{message['id']}</cap:identifier>",
                f'\t\t<link href="{link}" type="application/cap+xml"/>',
                f"\t\t<published>{message['sent'][:19]}Z</published>",
                f"\t\t<id>{link}?index_info=0&amp;index_area={index}&amp;index_geocode=0</id>",
                f"\t\t<title>{escape(message['event'].capitalize())} issued for United Kingdom - {escape(description)}</title>",
                f"\t\t<updated>{message['sent'][:19]}Z</updated>",
                "\t</entry>",
            ]))
    return "\n".join([
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:cap="urn:oasis:names:tc:emergency:cap:1.2">',
        f'\t<link href="{MA_HOST}/feeds/meteoalarm-legacy-atom-{MA_FEED}" rel="self" type="application/atom+xml"/>',
        "\t<rights>Copyright (c) 2026, meteoalarm.org</rights>",
        "\t<generator>Meteoalarm Producer Server</generator>",
        "\t<id>tag:meteoalarm.org,2021-02-19:UK</id>",
        "\t<title>Meteoalarm - severe weather warnings for Europe</title>",
        f"\t<updated>{RECORDED_AT}</updated>",
        *entries,
        "</feed>",
    ]) + "\n"


def meteoalarm_london():
    xml = [["Content-Type", "application/xml; charset=utf-8"]]
    interactions = [{
        "request": {"method": "GET", "url": f"{MA_HOST}/feeds/meteoalarm-legacy-atom-{MA_FEED}"},
        "response": {"status": 200, "headers": xml + [["Cache-Control", "max-age=300"]], "body": ma_atom()},
    }]
    for message in MA_MESSAGES:
        interactions.append({
            "request": {"method": "GET", "url": f"{MA_HOST}/api/v1/warnings/feeds-{MA_FEED}/{message['uuid']}"},
            "response": {"status": 200, "headers": xml, "body": ma_cap(message)},
        })
    return {"format": "isobar-cassette", "version": 1, "recorded_at": RECORDED_AT, "interactions": interactions}


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
