"""Direct identifiers, found by column name and by content: the rules every dataset meets.

A direct identifier names or locates a person by itself: e-mail address, IP address,
first/last/full name, a platform's response ID (which the platform links back to the
respondent), latitude/longitude, phone number (cf. the HIPAA Safe Harbor list,
45 CFR 164.514(b)(2), and the GDPR notion of direct identification). A column is one
when its name (or its question text) says so, or when most of its values look like one
(e-mail, IPv4/IPv6, Qualtrics response ID, "latitude, longitude" pairs, phone number
with 9-15 digits). An import leaves such columns out (:mod:`dpdesk.project.reading.identifiers`);
linking a source leaves them out of the recorded schema, from its names and an engine sample
(:mod:`dpdesk.project.linked.store`).
"""

from __future__ import annotations

import re


_BY_NAME = {
    "e-mail address": {"email", "emailaddress", "recipientemail", "mail", "emailadresse", "courriel"},
    "IP address": {"ip", "ipaddress", "ipaddr", "ipadresse", "ipv4", "ipv6"},
    "name": {"name", "firstname", "lastname", "fullname", "surname", "givenname", "familyname",
             "forename", "recipientfirstname", "recipientlastname", "respondentname",
             "participantname", "vorname", "nachname", "prenom", "nom"},
    "response ID": {"responseid", "respondentid", "externalreference", "externaldatareference",
                    "token", "participantid", "panelid"},
    "location": {"latitude", "longitude", "lat", "lon", "lng", "locationlatitude",
                 "locationlongitude", "geolocation", "gps", "coordinates"},
    "phone number": {"phone", "telephone", "phonenumber", "mobile", "mobilephone", "cellphone",
                     "tel", "telefon", "mobilenumber"},
}
_CONTAINS = {"e-mail address": ("email",), "phone number": ("phone",), "IP address": ("ipaddress",)}
_EMAIL = re.compile(r"^[\w.+'-]+@[\w-]+(\.[\w-]+)+$")
_IPV4 = re.compile(r"^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$")
_IPV6 = re.compile(r"^[0-9A-Fa-f]{0,4}(:[0-9A-Fa-f]{0,4}){2,7}$")
_RESPONSE_ID = re.compile(r"^R_[A-Za-z0-9]{15,17}$")
_PHONE = re.compile(r"^\+?[\d(][\d\s().-]{7,}\d$")
_LAT_LONG = re.compile(r"^\(?-?\d{1,2}\.\d{3,}\s*[,;]\s*-?\d{1,3}\.\d{3,}\)?$")
_BY_CONTENT = (("e-mail address", _EMAIL), ("IP address", _IPV4), ("IP address", _IPV6),
               ("response ID", _RESPONSE_ID), ("location", _LAT_LONG), ("phone number", None))
SAMPLE = 500
#: time stamps of survey platforms (Qualtrics, LimeSurvey, SoSci Survey...): when someone answered identifies
TIME_STAMP_NAMES = {"startdate", "enddate", "recordeddate", "submitdate", "datestamp", "timestamp",
               "starttime", "endtime", "submittime", "lastactivity", "datesubmitted",
               "date", "time", "datetime", "createdat", "completedat"}


def is_time_stamp_name(column) -> bool:
    """The column's name says it is a time stamp (StartDate, EndDate, RecordedDate, submit_time...)."""
    key = _key(column)
    return key in TIME_STAMP_NAMES or key.endswith(("date", "timestamp", "time"))


def _key(text) -> str:
    return re.sub(r"[^0-9a-z]", "", str(text).lower())


def by_name(column, label: str | None = None) -> str | None:
    """The kind of identifier the column's name or question text announces, else ``None``."""
    for text, is_name in ((column, True), (label, False)):
        if not text:
            continue
        key = _key(text)
        for kind, names in _BY_NAME.items():
            if key in names:
                return kind
            if is_name and len(key) <= 24 and any(part in key for part in _CONTAINS.get(kind, ())):
                return kind
    return None


def _is_phone(text: str) -> bool:
    if not _PHONE.match(text):
        return False
    digits = sum(c.isdigit() for c in text)
    return 9 <= digits <= 15 and (text.startswith("+") or any(c in text for c in " ()-.")) and ":" not in text


def by_content(series) -> tuple[str | None, float]:
    """The identifier kind most sampled text values look like, and the share that do."""
    import pandas as pd

    if isinstance(series.dtype, pd.CategoricalDtype):
        values = [v for v in series.cat.categories[:SAMPLE] if isinstance(v, str)]
    elif pd.api.types.is_object_dtype(series.dtype) or pd.api.types.is_string_dtype(series.dtype):
        values = [v for v in series.iloc[: SAMPLE * 4].dropna().unique()[:SAMPLE] if isinstance(v, str)]
    else:
        return None, 0.0
    values = [v.strip() for v in values if v.strip()]
    if not values:
        return None, 0.0
    best, share = None, 0.0
    for kind, pattern in _BY_CONTENT:
        test = _is_phone if pattern is None else pattern.match
        hits = sum(bool(test(v)) for v in values) / len(values)
        if hits > share:
            best, share = kind, hits
    return best, share
