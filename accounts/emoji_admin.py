"""The admin's custom emojis: the list, an upload form (a shortcode and a PNG, GIF or
WebP picture), and deleting one (confirmed, logged)."""

from django.contrib import messages
from django.contrib.admin.models import ADDITION, DELETION
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse

from socialsite.admin_views import confirm, log_action, render

from . import emojis


def custom_emojis(request: HttpRequest) -> HttpResponse:
    status = 200
    if request.method == "POST":
        upload = request.FILES.get("image")
        try:
            if upload is None:
                raise emojis.BadEmoji("Choose a picture (PNG, GIF or WebP).")
            if (upload.size or 0) > emojis.EMOJI_MAX_BYTES:
                raise emojis.BadEmoji(f"A picture is at most {emojis.EMOJI_MAX_BYTES // 1024} KB.")
            found = emojis.add_emoji(
                request.POST.get("shortcode"),
                upload.read(),
                category=request.POST.get("category", ""),
            )
        except emojis.BadEmoji as error:
            messages.error(request, str(error))
            status = 400
        else:
            code = found["shortcode"]
            log_action(request, ADDITION, f"emoji:{code}", f":{code}:", f"Added emoji :{code}:.")
            messages.success(request, f"Added :{code}:.")
            return redirect("admin:redis_custom_emojis")
    found = emojis.all_emojis()
    shown = [{**found[code], "url": emojis.emoji_url(found[code])} for code in sorted(found)]
    return render(
        request,
        "custom_emojis.html",
        "Custom emojis",
        crumbs=[("Custom emojis", None)],
        status=status,
        emojis=shown,
    )


def delete(request: HttpRequest, shortcode: str) -> HttpResponse:
    if shortcode not in emojis.all_emojis():
        emojis.forget()
        if shortcode not in emojis.all_emojis():
            raise Http404("No such emoji.")
    back = reverse("admin:redis_custom_emojis")
    if request.method != "POST":
        crumbs = [("Custom emojis", back), (f"Delete :{shortcode}:", None)]
        details = ["Statuses, names and bios that use it show the shortcode as text again."]
        question = f"Delete the emoji :{shortcode}:?"
        return confirm(request, f"Delete :{shortcode}:", crumbs, question, details, back)
    emojis.delete_emoji(shortcode)
    log_action(request, DELETION, f"emoji:{shortcode}", f":{shortcode}:", "Deleted the emoji.")
    messages.success(request, f"Deleted :{shortcode}:.")
    return redirect(back)
