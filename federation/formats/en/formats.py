# English pages show ISO dates (an international readership); German and French use Django's.
DATE_FORMAT = "j F Y"
SHORT_DATE_FORMAT = "Y-m-d"
