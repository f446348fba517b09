#!/usr/bin/env python3
"""Makes trips-edited.json from trips.json with exactly four edits, for the diff tests:
Trip 2's destination changes, a bucket-list item is added to trip 1, trip 2's accommodation is
removed, and bucket-list item 4 moves from trip 2 to trip 1 (both sides of the relationship).

    cd Tests/tripdocTests/Fixtures && python3 make_edited_trips.py
"""
import json

with open("trips.json", encoding="utf-8") as source:
    document = json.load(source)
snapshots = document["snapshots"]
trips = {trip["$id"]: trip for trip in snapshots["Trip"]}

trips["2"]["destination"] = "Lima"

snapshots["BucketListItem"].append(
    {"$id": "10", "details": "Eat ceviche.", "hasReservation": False, "isInPlan": True, "title": "Eat ceviche", "trip": "1"}
)
trips["1"]["bucketList"].append("10")
document["header"]["nextPrimaryKeys"]["BucketListItem"] = 11

snapshots["LivingAccommodation"] = [stay for stay in snapshots["LivingAccommodation"] if stay["$id"] != "2"]
del trips["2"]["livingAccommodation"]

item = next(item for item in snapshots["BucketListItem"] if item["$id"] == "4")
item["trip"] = "1"
trips["2"]["bucketList"].remove("4")
trips["1"]["bucketList"].append("4")

with open("trips-edited.json", "w", encoding="utf-8") as target:
    json.dump(document, target, indent=1, sort_keys=True, ensure_ascii=False)
    target.write("\n")
