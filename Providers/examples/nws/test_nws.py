"""Unit tests of the NWS plug-in's conversions (standard library unittest; run by the Swift test suite)."""
import json
import unittest

import nws


class ConversionTests(unittest.TestCase):
    def test_fahrenheit_becomes_celsius(self):
        self.assertEqual(nws.temperature_c(50, "F"), 10.0)
        self.assertEqual(nws.temperature_c(-40, "F"), -40.0)
        self.assertEqual(nws.temperature_c(7, "C"), 7.0)
        self.assertIsNone(nws.temperature_c(None, "F"))

    def test_wind_text_becomes_metres_per_second(self):
        self.assertEqual(nws.wind_speed_ms("10 mph"), 4.47)
        self.assertEqual(nws.wind_speed_ms("5 to 15 mph"), 4.47)
        self.assertEqual(nws.wind_speed_ms("36 km/h"), 10.0)
        self.assertIsNone(nws.wind_speed_ms("calm"))
        self.assertIsNone(nws.wind_speed_ms(None))

    def test_compass_points_become_degrees(self):
        self.assertEqual(nws.compass_degrees("N"), 0)
        self.assertEqual(nws.compass_degrees("SW"), 225)
        self.assertEqual(nws.compass_degrees("NNW"), 337.5)
        self.assertIsNone(nws.compass_degrees("variable"))

    def test_short_forecasts_become_conditions(self):
        self.assertEqual(nws.condition("Slight Chance Showers And Thunderstorms"), "thunderstorm")
        self.assertEqual(nws.condition("Chance Light Rain"), "rain")
        self.assertEqual(nws.condition("Mostly Sunny"), "mainly_clear")
        self.assertEqual(nws.condition("Patchy Fog"), "fog")
        self.assertEqual(nws.condition("Rain And Snow Showers"), "rain_and_snow")
        self.assertIsNone(nws.condition("Breezy"))

    def test_times_become_utc(self):
        self.assertEqual(nws.utc("2026-11-28T04:00:00-05:00"), "2026-11-28T09:00:00Z")
        self.assertEqual(nws.offset_seconds("2026-11-28T04:00:00-05:00"), -18000)

    def test_the_lookup_keeps_the_configured_host(self):
        points = {"properties": {"forecastHourly": "https://api.weather.gov/gridpoints/OKX/33,35/forecast/hourly",
                                 "observationStations": "https://api.weather.gov/gridpoints/OKX/33,35/stations", "timeZone": "America/New_York"}}
        message = {"round": 1, "base_url": "http://127.0.0.1:8080", "request": {"kinds": ["hourly"]},
                   "responses": [{"status": 200, "body": json.dumps(points)}]}
        answer = nws.decode(message)
        self.assertEqual([r["url"] for r in answer["requests"]], ["http://127.0.0.1:8080/gridpoints/OKX/33,35/forecast/hourly"])
        self.assertEqual(answer["state"], {"timezone": "America/New_York"})
        message["request"]["kinds"] = ["current"]
        self.assertEqual([r["url"] for r in nws.decode(message)["requests"]], ["http://127.0.0.1:8080/gridpoints/OKX/33,35/stations"])

    def test_current_conditions_come_from_the_nearest_station(self):
        stations = {"observationStations": ["https://api.weather.gov/stations/KNYC", "https://api.weather.gov/stations/KLGA"]}
        message = {"round": 2, "base_url": None, "request": {"kinds": ["current"]}, "state": {"timezone": "America/New_York"},
                   "responses": [{"status": 200, "body": json.dumps(stations)}]}
        answer = nws.decode(message)
        self.assertEqual(answer["requests"][0]["url"], "https://api.weather.gov/stations/KNYC/observations/latest")
        self.assertEqual(answer["state"], {"timezone": "America/New_York"})

    def test_observations_become_si(self):
        current = nws.observation({
            "timestamp": "2026-11-28T08:51:00+00:00", "textDescription": "Mostly Cloudy",
            "temperature": {"unitCode": "wmoUnit:degF", "value": 50}, "windSpeed": {"unitCode": "wmoUnit:km_h-1", "value": 18},
            "seaLevelPressure": {"unitCode": "wmoUnit:Pa", "value": 101690}, "windGust": {"unitCode": "wmoUnit:km_h-1", "value": None},
            "visibility": {"unitCode": "wmoUnit:furlong", "value": 80}, "windChill": {"unitCode": "wmoUnit:degC", "value": 2.43}})
        self.assertEqual(current["time"], "2026-11-28T08:51:00Z")
        self.assertEqual((current["temperature_c"], current["wind_speed_ms"], current["pressure_hpa"]), (10.0, 5.0, 1016.9))
        self.assertEqual(current["apparent_temperature_c"], 2.43)
        self.assertIsNone(current["wind_gust_ms"])
        self.assertIsNone(current["visibility_m"], "a unit the plug-in does not know is left out")
        self.assertEqual(current["condition"], "cloudy")

    def test_failure_statuses_are_errors_as_data(self):
        with self.assertRaises(nws.PluginError) as raised:
            nws.check_status({"status": 503})
        self.assertEqual((raised.exception.code, raised.exception.retry_after_s), ("unavailable", 5))


if __name__ == "__main__":
    unittest.main()
