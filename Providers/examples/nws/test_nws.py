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
        points = {"properties": {"forecastHourly": "https://api.weather.gov/gridpoints/OKX/33,35/forecast/hourly", "timeZone": "America/New_York"}}
        message = {"round": 1, "base_url": "http://127.0.0.1:8080", "responses": [{"status": 200, "body": json.dumps(points)}]}
        answer = nws.decode(message)
        self.assertEqual(answer["requests"][0]["url"], "http://127.0.0.1:8080/gridpoints/OKX/33,35/forecast/hourly")
        self.assertEqual(answer["state"], {"timezone": "America/New_York"})

    def test_failure_statuses_are_errors_as_data(self):
        with self.assertRaises(nws.PluginError) as raised:
            nws.check_status({"status": 503})
        self.assertEqual((raised.exception.code, raised.exception.retry_after_s), ("unavailable", 5))


if __name__ == "__main__":
    unittest.main()
