import TripDoc
